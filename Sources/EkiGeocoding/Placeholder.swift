import EkiKit
