extension AppSingletons {
    /// Starts every held value that has a lifecycle (``ManagedSingleton``), dependencies first, awaiting each.
    ///
    /// The order is topological over ``SingletonKey/dependencies`` and otherwise the order in which the container
    /// came to hold the keys, so it is the same on every run. A dependency cycle, or a dependency on a key the
    /// container does not hold, throws ``SingletonLifecycleError`` before anything starts. If a value fails to
    /// start, the values already started are shut down in reverse order and the error is rethrown, so a failed
    /// start leaves nothing running.
    public func start() async throws {
        let values = try acting.lifecycleOrder().compactMap(\.lifecycle)
        let (started, failure) = await OrderedStart.start(values) { value in try await value.start() }
        guard let failure else { return }
        for value in started.reversed() { await value.shutdown() }
        throw failure
    }

    /// Shuts every held value that has a lifecycle down, in the reverse of the start order, awaiting each.
    ///
    /// When the dependencies cannot be ordered (see ``start()``), values are shut down in the reverse of the
    /// order the container came to hold them.
    public func shutdown() async {
        let container = acting
        let order = (try? container.lifecycleOrder()) ?? Array(container.boxes)
        for box in order.reversed() { await box.lifecycle?.shutdown() }
    }

    /// The held boxes, each after the boxes of its dependencies.
    func lifecycleOrder() throws(SingletonLifecycleError) -> [AnySingletonBox] {
        var order: [AnySingletonBox] = []
        var done: Set<ObjectIdentifier> = []
        var path: [AnySingletonBox] = []
        var onPath: Set<ObjectIdentifier> = []

        func visit(_ box: AnySingletonBox) throws(SingletonLifecycleError) {
            if done.contains(box.id) { return }
            if onPath.contains(box.id) {
                var names: [String] = []
                for step in path where step === box || !names.isEmpty { names.append(step.name) }
                throw .dependencyCycle(names + [box.name])
            }
            path.append(box)
            onPath.insert(box.id)
            for dependency in box.dependencies {
                guard let held = self.box(for: ObjectIdentifier(dependency)) else {
                    throw .undeclaredDependency(key: box.name, dependency: dependency.name)
                }
                try visit(held)
            }
            path.removeLast()
            onPath.remove(box.id)
            done.insert(box.id)
            order.append(box)
        }

        for box in boxes { try visit(box) }
        return order
    }

    /// The boxes this container holds, in order: the enclosing container's (with this one's replacements in
    /// their places), then the keys only this one holds.
    final var boxes: [AnySingletonBox] {
        guard let enclosing else { return Array(ownBoxes) }
        var boxes = enclosing.boxes
        var positions: [ObjectIdentifier: Int] = [:]
        for (position, box) in boxes.enumerated() { positions[box.id] = position }
        for box in ownBoxes {
            if let position = positions[box.id] { boxes[position] = box } else { boxes.append(box) }
        }
        return boxes
    }
}
