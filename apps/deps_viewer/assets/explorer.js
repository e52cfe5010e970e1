/* placeholder: the explorer page asset explorer.js */
