"""/ruling: a card's official rulings in the reader's language (choice, pages, command)."""
