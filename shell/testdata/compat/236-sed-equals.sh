sed = a.txt | head -4
