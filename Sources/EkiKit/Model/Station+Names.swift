extension Station {
    /// The entry's other readings: the aliases written in kana alone when its name is not
    /// (京福 西院 さい has 阪急's さいいん). Searched as readings (`eki search --by reading`).
    public var otherReadings: [String] {
        TextFold.isKana(name) ? [] : formerNames.filter(TextFold.isKana)
    }

    /// The entry's former and other names: `formerNames` without `otherReadings`
    /// (日田彦山線's 歓遊舎ひこさん …, 聖マリア病院前's 試験場前).
    public var otherNames: [String] {
        TextFold.isKana(name) ? formerNames : formerNames.filter { !TextFold.isKana($0) }
    }
}
