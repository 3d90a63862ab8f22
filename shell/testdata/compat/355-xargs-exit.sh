echo x | xargs false
echo $?
