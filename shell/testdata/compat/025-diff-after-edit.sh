cp src/main.go main.go.orig
sed -i 's/world/there/' src/main.go
diff main.go.orig src/main.go
echo "exit=$?"
