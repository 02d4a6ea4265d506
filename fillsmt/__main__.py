from fillsmt.entry import main

main()
