# bash 5.2 does no tilde expansion in an associative array literal's
# [k]=v (declare -A, a=(...), a+=(...), local -A); an indexed array's
# elements and a[k]=v assignments keep it
HOME=/h
declare -A a=([k]=~ [j]=~:~); echo "${a[k]} ${a[j]}"
declare -A b; b=([k]=~ [j]=~/x); echo "${b[k]} ${b[j]}"
c=([0]=~ [1]=~/x ~ x=~); echo "${c[@]}"
declare -a d=([0]=~ ~); echo "${d[@]}"
f() { local -A e=([k]=~); echo "${e[k]}"; }; f
a+=([m]=~); echo "${a[m]}"; b[z]=~; echo "${b[z]}"
declare -A g=([k]="~" [l]=~"x" [n]=$HOME~); echo "${g[k]} ${g[l]} ${g[n]}"
