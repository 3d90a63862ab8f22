cat <<EOF > x.py
def main():
    print("hello from $HOME")


if __name__ == "__main__":
    main()
EOF
cat x.py
wc -l x.py
