grep -rn --include='*.go' 'func ' src | sort
