cp -r src src2
echo extra >> src2/main.go
diff -r src src2
echo "exit=$?"
