{ echo o; echo e >&2; } &> both.txt
sort both.txt
{ echo x; } >/dev/null
echo done
