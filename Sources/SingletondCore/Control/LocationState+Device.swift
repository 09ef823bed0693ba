import GNSSLocation

extension LocationState {
    /// ``GNSSLocation/LocationState/description``, with the source named `device` wherever it names it: the name
    /// the daemon's reports carry (`tcp://127.0.0.1:10110`, `gpsd://127.0.0.1:2947`, `demo`, a path), where the
    /// location manager names it otherwise (the real one names it so since round five; a mock may not).
    func description(naming device: String) -> String {
        guard let source, !source.isEmpty, source != device else { return description }
        return description.replacing(source, with: device)
    }
}
