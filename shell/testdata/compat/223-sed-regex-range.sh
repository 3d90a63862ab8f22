sed -n '/## Usage/,/## License/p' README.md
