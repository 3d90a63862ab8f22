fact() {
  if [ "$1" -le 1 ]; then echo 1; return; fi
  local sub
  sub=$(fact $(( $1 - 1 )))
  echo $(( $1 * sub ))
}
fact 10
