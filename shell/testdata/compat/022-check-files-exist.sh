if [ -f go.mod ]; then echo "has go.mod"; else echo "no go.mod"; fi
[ -d src ] && echo "src is a folder"
test -f README.md && echo "has README"
