from fillsmt.cli import main

main()
