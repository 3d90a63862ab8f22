function build {
  echo "building $1"
  return 2
}
build app
echo "rc=$?"
