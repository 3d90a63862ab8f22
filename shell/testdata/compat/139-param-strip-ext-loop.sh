for f in src/*.go src/*/*.go; do
  b=${f##*/}
  echo "${b%.go}"
done
