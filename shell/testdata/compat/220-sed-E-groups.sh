sed -E 's/^([^,]+),([^,]+).*/\2 x \1/' data.csv
