yes | head -n 3
yes abc | head -2
