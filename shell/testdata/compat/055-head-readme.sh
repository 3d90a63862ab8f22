head -20 README.md
