printf '' | xargs echo hi
printf '' | xargs -r echo never
echo done
