frobnicate --version
echo "status=$?"
