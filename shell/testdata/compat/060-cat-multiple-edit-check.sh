printf 'x=1\ny=2\n' > vars.env
sed -i 's/y=2/y=3/' vars.env
cat vars.env
grep -q 'y=3' vars.env && echo updated
