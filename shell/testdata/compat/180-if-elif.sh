for n in 5 50 500; do
  if [ $n -lt 10 ]; then echo small
  elif [ $n -lt 100 ]; then echo medium
  else echo large
  fi
done
