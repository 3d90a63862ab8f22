x="a   b"
echo $x
echo "$x"
echo '$x'
echo "\$x"
echo "it's"
echo 'say "hi"'
echo $'tab\there'
