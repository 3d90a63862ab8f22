ls
echo ---
ls -a
echo ---
ls -la | awk 'NR > 1 {print $NF}'
