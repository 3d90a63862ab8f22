e=""
set -- $e
echo $#
set -- "$e"
echo $#
set -- "$@" more
echo $#
