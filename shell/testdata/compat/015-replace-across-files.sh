grep -rl TODO src | sort | xargs sed -i 's/TODO/DONE/g'
grep -rn DONE src | sort
grep -rc TODO src | sort
