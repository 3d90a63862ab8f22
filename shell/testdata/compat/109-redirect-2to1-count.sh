ls nonexistent data.csv 2>&1 | wc -l
