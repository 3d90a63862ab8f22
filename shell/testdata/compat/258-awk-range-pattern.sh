awk '/## Usage/,/## License/ {print NR ": " $0}' README.md
