"""Players across the rooms: merging two players of a club into one (`merge`) and its pages
(`views`). Assembly: a merge moves rows of the clubs, scorecards, tournaments and standings."""
