for i in 1 2 3; do
  echo "content $i" > "file_$i.txt"
done
ls file_*.txt
cat file_2.txt
