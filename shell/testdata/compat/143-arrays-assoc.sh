declare -A ages=([alice]=31 [bob]=25)
ages[carol]=42
for k in "${!ages[@]}"; do echo "$k=${ages[$k]}"; done | sort
echo ${#ages[@]}
