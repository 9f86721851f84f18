#if Postgres
    import SwitchyardPostgres
    import Testing

    // The timestamps are seconds since 1970 in UTC, checked against Python's calendar.timegm and croniter.
    @Suite("CronSchedule")
    struct CronScheduleTests {
        /// 2026-11-29T12:00:00Z, a Sunday.
        static let sundayNoon: Int64 = 1_795_953_600
        /// 2026-11-27T10:00:00Z, a Friday.
        static let fridayTen: Int64 = 1_795_773_600
        /// 2026-01-01T00:00:00Z, a Thursday.
        static let newYear2026: Int64 = 1_767_225_600

        /// The first `count` ticks of `expression` after `start`.
        static func ticks(_ expression: String, after start: Int64, count: Int = 1) throws -> [Int64] {
            let schedule = try CronSchedule(expression)
            var ticks: [Int64] = []
            var time = start
            for _ in 0..<count {
                time = schedule.nextTick(after: time)
                ticks.append(time)
            }
            return ticks
        }

        @Test("every minute: the next whole minute, strictly after the time, before 1970 too")
        func everyMinute() throws {
            let noon = Self.sundayNoon
            #expect(try Self.ticks("* * * * *", after: noon, count: 3) == [noon + 60, noon + 120, noon + 180])
            #expect(try Self.ticks("* * * * *", after: noon + 30) == [noon + 60])
            #expect(try Self.ticks("* * * * *", after: noon + 59) == [noon + 60])
            #expect(try Self.ticks("* * * * *", after: noon - 1) == [noon])
            #expect(try Self.ticks("* * * * *", after: -1) == [0])
            #expect(try Self.ticks("* * * * *", after: -60) == [0])
            #expect(try Self.ticks("* * * * *", after: -61) == [-60])
            #expect(try Self.ticks("\t* *  * * *\n", after: 0) == [60])
        }

        @Test("steps: */15 across the hour and midnight, a-b/n, a/n to the field's end")
        func steps() throws {
            // 12:15, 12:30, 12:45, 13:00, 13:15.
            #expect(
                try Self.ticks("*/15 * * * *", after: Self.sundayNoon, count: 5)
                    == [1_795_954_500, 1_795_955_400, 1_795_956_300, 1_795_957_200, 1_795_958_100])
            // 2026-11-29T23:50Z → 2026-11-30T00:00Z.
            #expect(try Self.ticks("*/15 * * * *", after: 1_795_996_200) == [1_795_996_800])
            // 12:10, 12:20, 12:30, 13:10.
            #expect(
                try Self.ticks("10-30/10 * * * *", after: Self.sundayNoon, count: 4)
                    == [1_795_954_200, 1_795_954_800, 1_795_955_400, 1_795_957_800])
            // 12:50, 12:55, 13:50.
            #expect(
                try Self.ticks("50/5 * * * *", after: Self.sundayNoon, count: 3)
                    == [1_795_956_600, 1_795_956_900, 1_795_960_200])
            // Lists of several kinds of parts.
            #expect(
                try Self.ticks("5,50-51,*/30 * * * *", after: Self.sundayNoon, count: 5).map { $0 - Self.sundayNoon }
                    == [300, 1800, 3000, 3060, 3600])
        }

        @Test("0 9 * * MON-FRI skips the weekend")
        func weekdays() throws {
            // Friday 2026-11-27 10:00 → Monday 2026-11-30 09:00, Tuesday 2026-12-01 09:00.
            #expect(
                try Self.ticks("0 9 * * MON-FRI", after: Self.fridayTen, count: 2) == [1_796_029_200, 1_796_115_600])
            #expect(try Self.ticks("0 9 * * 1-5", after: Self.fridayTen, count: 2) == [1_796_029_200, 1_796_115_600])
            // Friday 08:59:59 → Friday 09:00.
            #expect(try Self.ticks("0 9 * * MON-FRI", after: 1_795_769_999) == [1_795_770_000])
        }

        @Test("0 0 1 * *: into the next month, and December into January")
        func monthRollover() throws {
            // 2026-01-31T12:00Z → 2026-02-01; exactly 2026-02-01 → 2026-03-01.
            #expect(try Self.ticks("0 0 1 * *", after: 1_769_860_800, count: 2) == [1_769_904_000, 1_772_323_200])
            // 2026-12-15 → 2027-01-01.
            #expect(try Self.ticks("0 0 1 * *", after: 1_797_292_800) == [1_798_761_600])
        }

        @Test("0 0 29 2 *: the next leap day, and none in 2100")
        func leapDay() throws {
            // 2025-01-01 → 2028-02-29 → 2032-02-29.
            #expect(try Self.ticks("0 0 29 2 *", after: 1_735_689_600, count: 2) == [1_835_395_200, 1_961_625_600])
            // 2097-03-01 → 2104-02-29, eight years on.
            #expect(try Self.ticks("0 0 29 2 *", after: 4_012_934_400) == [4_233_686_400])
        }

        @Test("both day fields restricted: either matches; one starting with * : both must")
        func dayRule() throws {
            // Fridays and the 13th from 2026-01-01: Jan 2, 9, 13 (a Tuesday), 16, 23, 30, Feb 6, 13.
            #expect(
                try Self.ticks("0 0 13 * FRI", after: Self.newYear2026, count: 8)
                    == [
                        1_767_312_000, 1_767_916_800, 1_768_262_400, 1_768_521_600, 1_769_126_400, 1_769_731_200,
                        1_770_336_000, 1_770_940_800,
                    ])
            // The 13th alone: Jan 13, Feb 13.
            #expect(try Self.ticks("0 0 13 * *", after: Self.newYear2026, count: 2) == [1_768_262_400, 1_770_940_800])
            // */13 starts with *: the 1st, 14th or 27th that is a Friday (Feb 27, Mar 27, May 1, Aug 14).
            #expect(
                try Self.ticks("0 0 */13 * FRI", after: Self.newYear2026, count: 4)
                    == [1_772_150_400, 1_774_569_600, 1_777_593_600, 1_786_665_600])
        }

        @Test("macros, in any case, keep their text as the description")
        func macros() throws {
            // @weekly: Friday 2026-11-27 10:00 → Sunday 2026-11-29 00:00.
            #expect(try Self.ticks("@weekly", after: Self.fridayTen) == [1_795_910_400])
            #expect(try Self.ticks("@yearly", after: Self.newYear2026, count: 2) == [1_798_761_600, 1_830_297_600])
            #expect(try Self.ticks("@monthly", after: 1_769_860_800) == [1_769_904_000])
            #expect(try Self.ticks("@daily", after: Self.sundayNoon) == [1_795_996_800])
            #expect(try Self.ticks("@hourly", after: Self.sundayNoon) == [1_795_957_200])
            let pairs = [
                ("@yearly", "0 0 1 1 *"), ("@annually", "0 0 1 1 *"), ("@monthly", "0 0 1 * *"),
                ("@weekly", "0 0 * * 0"), ("@daily", "0 0 * * *"), ("@midnight", "0 0 * * *"),
                ("@hourly", "0 * * * *"), ("@DAILY", "0 0 * * *"),
            ]
            for (macro, fields) in pairs {
                for start in [Self.newYear2026, Self.fridayTen, Self.sundayNoon, -1] {
                    #expect(try Self.ticks(macro, after: start, count: 3) == Self.ticks(fields, after: start, count: 3))
                }
            }
            #expect(try CronSchedule("  @Daily \n").description == "@Daily")
            #expect(try CronSchedule(" */5  * * * * ").description == "*/5  * * * *")
            #expect(try CronSchedule("@daily") == CronSchedule("@daily"))
            #expect(try CronSchedule("@daily") != CronSchedule("0 0 * * *"))
        }

        @Test("day-of-week 7 is Sunday, like 0 and SUN; SUN ends a range as 7")
        func sunday() throws {
            for expression in [
                "0 0 * * 7", "0 0 * * 0", "0 0 * * SUN", "0 0 * * sun", "0 0 * * 7-7", "0 0 * * SUN-SUN",
            ] {
                // Friday 2026-11-27 10:00 → Sunday 2026-11-29 00:00, then 2026-12-06.
                #expect(try Self.ticks(expression, after: Self.fridayTen, count: 2) == [1_795_910_400, 1_796_515_200])
            }
            // Thursday 2026-11-26 → Friday, Saturday, Sunday noon, then the next Friday.
            #expect(
                try Self.ticks("0 12 * * 5-7", after: 1_795_651_200, count: 4)
                    == [1_795_780_800, 1_795_867_200, 1_795_953_600, 1_796_385_600])
            #expect(
                try Self.ticks("0 12 * * FRI-SUN", after: 1_795_651_200, count: 4)
                    == Self.ticks("0 12 * * 5-7", after: 1_795_651_200, count: 4))
            #expect(
                try Self.ticks("0 0 * * MON-SUN", after: Self.fridayTen, count: 3)
                    == [1_795_824_000, 1_795_910_400, 1_795_996_800])
        }

        @Test("month and day names, in any case, in lists, ranges and steps")
        func names() throws {
            // 2026-07-01, 2027-01-01, 2027-07-01.
            #expect(
                try Self.ticks("0 0 1 jan,Jul *", after: Self.newYear2026, count: 3)
                    == [1_782_864_000, 1_798_761_600, 1_814_400_000])
            // 2026-03-01, 2027-01-01, 2027-03-01.
            #expect(
                try Self.ticks("0 0 1 JAN-MAR/2 *", after: Self.newYear2026, count: 3)
                    == [1_772_323_200, 1_798_761_600, 1_803_859_200])
            // Friday 10:00 → Saturday 06:00, Sunday 06:00, the next Saturday 06:00.
            #expect(
                try Self.ticks("0 6 * * sat,Sun", after: Self.fridayTen, count: 3)
                    == [1_795_845_600, 1_795_932_000, 1_796_450_400])
        }

        @Test("a schedule that never fires answers Int64.max at once")
        func impossible() throws {
            for expression in ["0 0 31 2 *", "0 0 30 2 *", "0 0 31 4,6,9,11 *", "0 0 30-31 FEB */2"] {
                #expect(try CronSchedule(expression).nextTick(after: Self.sundayNoon) == .max)
            }
            // With day-of-week restricted too, a day matches on either: Fridays in February.
            #expect(try CronSchedule("0 0 31 2 FRI").nextTick(after: Self.sundayNoon) < .max)
            #expect(try CronSchedule("* * * * *").nextTick(after: .max) == .max)
        }

        @Test(
            "parse errors name the field and the text",
            arguments: [
                ("0 24 * * *", #"cron field "hour": 24 is out of range 0–23 in "0 24 * * *""#),
                ("60 * * * *", #"cron field "minute": 60 is out of range 0–59"#),
                ("* * 0 * *", #"cron field "day-of-month": 0 is out of range 1–31"#),
                ("* * 32 * *", #"cron field "day-of-month": 32"#),
                ("* * * 13 *", #"cron field "month": 13 is out of range 1–12"#),
                ("* * * * 8", #"cron field "day-of-week": 8 is out of range 0–7"#),
                ("* * * FOO *", #"cron field "month": "FOO""#),
                ("* * * * FRIDAY", #"cron field "day-of-week": "FRIDAY""#),
                ("* * * * JAN", #"cron field "day-of-week": "JAN""#),
                ("JAN * * * *", #"cron field "minute": "JAN""#),
                ("*/0 * * * *", #"cron field "minute": the step in "*/0" is 0"#),
                ("* 1-5/0 * * *", #"cron field "hour": the step in "1-5/0" is 0"#),
                ("*/60 * * * *", #"cron field "minute": the step 60"#),
                ("5-3 * * * *", #"cron field "minute": the range "5-3" runs backwards"#),
                ("* * * * FRI-MON", #"cron field "day-of-week": the range "FRI-MON" runs backwards"#),
                ("1,,2 * * * *", #"cron field "minute": an empty item"#),
                ("* * * * 1,", #"cron field "day-of-week": an empty item"#),
                ("-5 * * * *", #"cron field "minute": the range "-5" lacks a bound"#),
                ("1/2/3 * * * *", #"cron field "minute": "1/2/3" has more than one /"#),
                ("+5 * * * *", #"cron field "minute": "+5""#),
                ("* */x * * *", #"cron field "hour": the step "x""#),
                ("0 0 * *", "has 4 fields, not 5"),
                ("0 0 1 1 * 2026", "has 6 fields, not 5"),
                ("", "empty"),
                ("   ", "empty"),
                ("@reboot", #"unknown cron macro "@reboot""#),
                ("@daily 0", #"unknown cron macro "@daily 0""#),
            ])
        func parseErrors(expression: String, message: String) {
            let error = #expect(throws: CronSchedule.ParseError.self) { try CronSchedule(expression) }
            #expect(error?.description.contains(message) == true, "\(String(describing: error))")
        }
    }
#endif
