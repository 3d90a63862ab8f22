n=$(wc -l < numbers.txt)
echo "lines: $n"
echo "files: $(ls src | wc -l)"
echo "nested: $(echo $(echo deep))"
