set -- a b "c d"
echo $#
echo $2
shift
echo "$@"
echo "${@: -1}"
