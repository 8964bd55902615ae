import EkiCLI
