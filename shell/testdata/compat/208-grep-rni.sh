grep -rni todo src | sort
