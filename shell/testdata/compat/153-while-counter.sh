i=0
while [ $i -lt 5 ]; do echo $i; i=$((i + 1)); done
until [ $i -eq 0 ]; do i=$((i - 1)); done
echo $i
