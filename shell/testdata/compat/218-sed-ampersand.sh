sed 's/[0-9][0-9]*/[&]/' numbers.txt
