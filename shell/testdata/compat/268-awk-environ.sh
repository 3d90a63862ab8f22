FOO=bar awk 'BEGIN {print ENVIRON["FOO"]}'
