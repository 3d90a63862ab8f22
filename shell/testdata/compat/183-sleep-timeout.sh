sleep 0
timeout 5 echo ok
echo $?
