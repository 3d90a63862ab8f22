basename /a/b/c.txt
basename /a/b/c.txt .txt
basename src/
dirname /a/b/c.txt
dirname file
dirname /
basename -s .go src/main.go
