ls src/*/*.go
echo */*.md
