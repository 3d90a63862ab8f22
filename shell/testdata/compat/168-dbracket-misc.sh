x=10
[[ $x -gt 5 ]] && echo gt
[[ ! -d nonexistent ]] && echo nodir
[[ -z $unset_var ]] && echo empty
[[ "a b" == "a b" ]] && echo spaces
