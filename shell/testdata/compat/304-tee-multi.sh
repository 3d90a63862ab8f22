seq 3 | tee a1 a2 | wc -l
cat a1 a2
