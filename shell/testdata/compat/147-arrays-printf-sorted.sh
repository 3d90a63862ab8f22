names=(carol alice bob)
printf '%s\n' "${names[@]}" | sort
