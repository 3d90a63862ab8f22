v="version 1.23.4"
if [[ $v =~ ([0-9]+)\.([0-9]+)\.([0-9]+) ]]; then
  echo "${BASH_REMATCH[0]} major=${BASH_REMATCH[1]} minor=${BASH_REMATCH[2]}"
fi
[[ abc =~ ^[0-9]+$ ]] || echo "not numeric"
