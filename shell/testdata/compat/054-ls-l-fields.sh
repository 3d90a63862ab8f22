ls -l data.csv | awk '{print $1, $5, $NF}'
ls -ld src | cut -c1
