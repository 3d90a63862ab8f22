parse() {
  local OPTIND opt
  while getopts "vn:" opt; do
    case $opt in
      v) echo verbose ;;
      n) echo "name=$OPTARG" ;;
    esac
  done
  shift $((OPTIND - 1))
  echo "rest: $*"
}
parse -v -n demo file1 file2
