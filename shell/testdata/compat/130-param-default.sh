unset x
echo "${x:-default}"
x=""
echo "${x:-empty}" "[${x-unsetonly}]"
echo "${y:=assigned}"
echo "$y"
z=val
echo "${z:+alt}" "[${x:+alt}]"
