find . -name '* *' | sort
