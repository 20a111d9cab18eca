"""Study hub: quizzes, flashcards (FSRS), workshops and mind maps generated from the user's own documents."""
