tail -n +2 data.csv | while IFS=, read -r name qty price city; do
  echo "$name in $city"
done
