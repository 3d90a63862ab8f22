cmd='echo evaluated'
eval $cmd
var=name
eval "$var=42"
echo $name
