f=main.go
[[ $f == *.go ]] && echo go
[[ $f != *.txt ]] && echo "not txt"
[[ -n $f && -f src/$f ]] && echo exists
[[ abc < abd ]] && echo less
